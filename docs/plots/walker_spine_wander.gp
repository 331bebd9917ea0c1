# Head offset from FK under spine wander (data from examples/42_spine_wander.c --plot).
#   gnuplot -e "data='spine.dat'; out='../img/walker_spine_wander.png'" walker_spine_wander.gp
if (!exists("data")) data = 'spine.dat'
if (!exists("out")) out = '../img/walker_spine_wander.png'
set terminal pngcairo size 700,430 font "sans,9"
set output out
set title "Spine wander on the CMU spine: three hits (seeds 1, 2, 3) and the same times with seed 100"
set grid
set xlabel "time (s)"
set ylabel "head offset from FK (m)"
set y2label "weight"
set y2range [0:4]
set yrange [-0.05:0.05]
set y2tics 0, 1, 1
set key below horizontal
plot data using 1:2 axes x1y2 with filledcurves y1=0 lc rgb "#eeeeee" title "weight", \
     data using 1:3 with lines lw 2 lc rgb "#1f77b4" title "x (seeds 1-3)", \
     data using 1:5 with lines lw 2 lc rgb "#ff7f0e" title "z (seeds 1-3)", \
     data using 1:4 with lines lw 1 lc rgb "#2ca02c" title "y (seeds 1-3)", \
     data using 1:6 with lines dt 2 lc rgb "#1f77b4" title "x (seed 100)", \
     data using 1:7 with lines dt 2 lc rgb "#ff7f0e" title "z (seed 100)"
