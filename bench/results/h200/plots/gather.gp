# gather.gp - gather, one bar per file and type, written by clcoalesce plot.
# Data in gather.dat.  Edit and rerun here with: gnuplot gather.gp
set title "gather: GB/s by variant"
set xlabel "variant:param"
set ylabel "GB/s"
set yrange [0:*]
set grid
set key below
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid noxtics
set terminal pngcairo noenhanced size 1100,650
set output "gather.png"
plot "gather.dat" using 2:xtic(1) title "opencl NVIDIA H200 float", \
     "" using 3 title "opencl NVIDIA H200 double", \
     "" using 4 title "cuda NVIDIA H200 float", \
     "" using 5 title "cuda NVIDIA H200 double"

set terminal svg noenhanced size 1100,650
set output "gather.svg"
replot
unset output
