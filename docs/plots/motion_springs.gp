# Spring trajectories at 30 and 240 fps (data from examples/20_springs.c).
#   gnuplot -e "data='springs.dat'; out='../img/motion_springs.png'" motion_springs.gp
if (!exists("data")) data = 'springs.dat'
if (!exists("out")) out = '../img/motion_springs.png'
set terminal pngcairo size 760,380 font "sans,10"
set output out
set title "Critically damped spring, half-life 0.2 s: 240 fps (line) and 30 fps (dots)"
set xlabel "time (s)"
set ylabel "value"
set key bottom left box opaque
set grid
set yrange [-0.7:1.2]
plot data index 0 using 1:4 with steps lw 1 dt 2 lc rgb "#888888" title "goal", \
     data index 0 using 1:2 with lines lw 2 lc rgb "#1f77b4" title "spring, 240 fps", \
     data index 1 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "spring, 30 fps", \
     data index 1 using 1:3 with linespoints pt 6 ps 0.5 lw 1 lc rgb "#2ca02c" title "damper, 30 fps"
