# A follow-the-leader chain behind a head on a figure eight (data from examples/21_tail.c).
#   gnuplot -e "data='tail.dat'; out='../img/motion_tail.png'" motion_tail.gp
if (!exists("data")) data = 'tail.dat'
if (!exists("out")) out = '../img/motion_tail.png'
set terminal pngcairo size 760,520 font "sans,10"
set output out
set title "Follow-the-leader: 12 points, 0.08 m apart, behind a head on a figure eight"
set xlabel "x (m)"
set ylabel "y (m)"
set size ratio -1
set key below horizontal
set grid
set xrange [-1.25:1.25]
set yrange [-0.75:0.75]
plot data index 0 using 1:2 with lines lw 1 lc rgb "#888888" title "head path", \
     data index 1 using 1:2 with lines lw 2 dt 2 lc rgb "#ff7f0e" title "tail path", \
     for [i=2:7] data index i using 1:2 with linespoints pt 7 ps 0.5 lw 2 lc i-1 \
         title sprintf("chain at %d/6 loop", i-1)
