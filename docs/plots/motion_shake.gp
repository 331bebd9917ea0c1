# Camera shake and fov pulse of one hit (data from examples/23_camera_shake.c).
#   gnuplot -e "data='shake.dat'; out='../img/motion_shake.png'" motion_shake.gp
if (!exists("data")) data = 'shake.dat'
if (!exists("out")) out = '../img/motion_shake.png'
set terminal pngcairo size 760,480 font "sans,10"
set output out
set multiplot layout 2,1 title "Camera shake (seed 2024): fade in 0.04 s, hold 0.12 s, fade out 0.45 s"
set grid
set key outside right
set xrange [-0.1:0.8]
set ylabel "position x (m)"
set format x ""
plot data using 1:2 with lines lw 1 dt 2 lc rgb "#888888" title "+/- envelope", \
     data using 1:(-$2) with lines lw 1 dt 2 lc rgb "#888888" notitle, \
     data using 1:3 with lines lw 2 lc rgb "#1f77b4" title "shake x"
set format x "%g"
set xlabel "time since the hit (s)"
set ylabel "field of view (rad)"
plot data using 1:5 with lines lw 2 lc rgb "#2ca02c" title "shake fov", \
     data using 1:6 with lines lw 2 lc rgb "#d62728" title "fov pulse"
unset multiplot
