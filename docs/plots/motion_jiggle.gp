# A jiggle tail on a swaying body, 30 vs 240 fps (data from examples/22_jiggle.c).
#   gnuplot -e "data='jiggle.dat'; out='../img/motion_jiggle.png'" motion_jiggle.gp
if (!exists("data")) data = 'jiggle.dat'
if (!exists("out")) out = '../img/motion_jiggle.png'
set terminal pngcairo size 760,480 font "sans,10"
set output out
set multiplot layout 2,1 title "Jiggle tail (5 joints, stiffness 300, damping 8, gravity, a bar under it)"
set grid
set key outside right
set ylabel "sideways z (m)"
set format x ""
plot data using 1:2 with lines lw 1 dt 2 lc rgb "#888888" title "body", \
     data using 1:5 with lines lw 2 lc rgb "#1f77b4" title "tip, 240 fps", \
     data using 1:3 with points pt 7 ps 0.4 lc rgb "#d62728" title "tip, 30 fps"
set format x "%g"
set xlabel "time (s)"
set ylabel "tip height y (m)"
plot data using 1:6 with lines lw 2 lc rgb "#1f77b4" title "tip, 240 fps", \
     data using 1:4 with points pt 7 ps 0.4 lc rgb "#d62728" title "tip, 30 fps"
unset multiplot
