# offset.gp - GB/s vs offset, one line per file and type, written by clcoalesce plot.
# Data in offset.dat.  Edit and rerun here with: gnuplot offset.gp
set title "offset: GB/s vs offset"
set xlabel "offset (elements)"
set ylabel "GB/s"
set yrange [0:*]
set grid
set key below
set terminal pngcairo noenhanced size 1100,650
set output "offset.png"
plot "offset.dat" index 0 using 1:2 with linespoints title "opencl NVIDIA H200 float", \
     "offset.dat" index 1 using 1:2 with linespoints title "opencl NVIDIA H200 double", \
     "offset.dat" index 2 using 1:2 with linespoints title "cuda NVIDIA H200 float", \
     "offset.dat" index 3 using 1:2 with linespoints title "cuda NVIDIA H200 double", \
     4814.3 with lines dashtype 2 linewidth 2 linecolor rgb "black" title "peak 4814 GB/s, opencl NVIDIA H200", \
     4152.78 with lines dashtype 3 linewidth 2 linecolor rgb "gray40" title "copy ceiling 4153 GB/s, opencl NVIDIA H200"

set terminal svg noenhanced size 1100,650
set output "offset.svg"
replot
unset output
