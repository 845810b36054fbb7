# mlp.gp - mlp, one bar per file and type, written by clcoalesce plot.
# Data in mlp.dat.  Edit and rerun here with: gnuplot mlp.gp
set title "mlp: GB/s by variant"
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
set output "mlp.png"
plot "mlp.dat" using 2:xtic(1) title "opencl NVIDIA H200 float", \
     "" using 3 title "cuda NVIDIA H200 float"

set terminal svg noenhanced size 1100,650
set output "mlp.svg"
replot
unset output
