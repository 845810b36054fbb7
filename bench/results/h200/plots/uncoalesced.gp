# uncoalesced.gp - uncoalesced, one bar per file and type, written by clcoalesce plot.
# Data in uncoalesced.dat.  Edit and rerun here with: gnuplot uncoalesced.gp
set title "uncoalesced: GB/s by variant"
set xlabel "variant"
set ylabel "GB/s"
set yrange [0:*]
set grid
set key below
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid noxtics
set terminal pngcairo noenhanced size 1100,650
set output "uncoalesced.png"
plot "uncoalesced.dat" using 2:xtic(1) title "opencl NVIDIA H200 float", \
     "" using 3 title "cuda NVIDIA H200 float"

set terminal svg noenhanced size 1100,650
set output "uncoalesced.svg"
replot
unset output
