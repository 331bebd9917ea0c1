# CMU legs walking off a 15 cm step (data from examples/40_foot_placement.c --plot).
#   gnuplot -e "data='foot.dat'; out='../img/foot_step.png'" foot_step.gp
if (!exists("data")) data = 'foot.dat'
if (!exists("out")) out = '../img/foot_step.png'
set terminal pngcairo size 760,560 font "sans,10"
set output out
set multiplot layout 2,1 title "Foot placement: a synthetic walk at 1.2 m/s off a 15 cm step (60 fps)"
set grid
set key top right
set ylabel "height (m)"
set xrange [0:2.5]
plot data using 1:2 with lines lw 2 lc rgb "#888888" title "ground under the left foot", \
     data using 1:4 with lines dt 2 lc rgb "#1f77b4" title "left ankle, animated", \
     data using 1:3 with lines lw 2 lc rgb "#1f77b4" title "left ankle, placed", \
     data using 1:7 with lines dt 2 lc rgb "#ff7f0e" title "right ankle, animated", \
     data using 1:6 with lines lw 2 lc rgb "#ff7f0e" title "right ankle, placed"
set xlabel "time (s)"
set ylabel "pelvis offset (m)"
set yrange [-0.18:0.02]
plot data using 1:8 with lines lw 2 lc rgb "#2ca02c" title "pelvis (springs, 0.1 s half-life)"
unset multiplot
