# transpose.gp - transpose, one bar per file and type, written by clcoalesce plot.
# Data in transpose.dat.  Edit and rerun here with: gnuplot transpose.gp
set title "transpose: GB/s by variant"
set xlabel "variant:param"
set ylabel "GB/s"
set yrange [0:*]
set grid
set key below
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid noxtics
set xtics rotate by -40 left
set terminal pngcairo noenhanced size 1100,650
set output "transpose.png"
plot "transpose.dat" using 2:xtic(1) title "opencl NVIDIA H200 float", \
     "" using 3 title "opencl NVIDIA H200 double", \
     "" using 4 title "cuda NVIDIA H200 float", \
     "" using 5 title "cuda NVIDIA H200 double"

set terminal svg noenhanced size 1100,650
set output "transpose.svg"
replot
unset output
