# stride.gp - GB/s vs stride, one line per file and type, written by clcoalesce plot.
# Data in stride.dat.  Edit and rerun here with: gnuplot stride.gp
set title "stride: GB/s vs stride"
set xlabel "stride (elements)"
set ylabel "GB/s"
set yrange [0:*]
set grid
set key below
set logscale x 2
set terminal pngcairo noenhanced size 1100,650
set output "stride.png"
plot "stride.dat" index 0 using 1:2 with linespoints title "opencl NVIDIA H200 float", \
     "stride.dat" index 1 using 1:2 with linespoints title "opencl NVIDIA H200 double", \
     "stride.dat" index 2 using 1:2 with linespoints title "cuda NVIDIA H200 float", \
     "stride.dat" index 3 using 1:2 with linespoints title "cuda NVIDIA H200 double", \
     4814.3 with lines dashtype 2 linewidth 2 linecolor rgb "black" title "peak 4814 GB/s, opencl NVIDIA H200", \
     4152.78 with lines dashtype 3 linewidth 2 linecolor rgb "gray40" title "copy ceiling 4153 GB/s, opencl NVIDIA H200"

set terminal svg noenhanced size 1100,650
set output "stride.svg"
replot
unset output
