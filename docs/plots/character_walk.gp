# docs/img/character_walk.png: the default humanoid's procedural walk.
# Top: side view (+Z to the right) of the skeleton at 8 phases of one cycle,
# spread out 0.45 m apart. Bottom: ankle and hips heights over two cycles,
# the planted phases (between a foot's down and up events) shaded.
# gnuplot -e "sticks='...'; heights='...'; out='...'" character_walk.gp
set terminal pngcairo size 900,620 font ",10"
set output out
set multiplot layout 2,1 title "Default humanoid: walk at 1.4 m/s (procedural, two-bone IK feet)"
set size ratio -1
unset key
set xlabel "z (m), figures 0.45 m apart, t = 0, T/8, ... 7T/8"
set ylabel "y (m)"
set yrange [-0.05:1.85]
set xrange [-0.4:3.6]
set grid
plot sticks using 1:2 with lines lw 2 lc rgb "#335577", 0 with lines lc rgb "#888888"
set size noratio
set key top right horizontal
set xlabel "time (s)"
set ylabel "height (m)"
set xrange [*:*]
set yrange [0.0:1.0]
set style fill transparent solid 0.15 noborder
plot heights using 1:($5 * 0.3) with filledcurves y1=0 lc rgb "#2266cc" title "left planted", \
     heights using 1:($6 * 0.3) with filledcurves y1=0 lc rgb "#cc3322" title "right planted", \
     heights using 1:2 with lines lw 2 lc rgb "#2266cc" title "left ankle", \
     heights using 1:3 with lines lw 2 lc rgb "#cc3322" title "right ankle", \
     heights using 1:4 with lines lw 2 lc rgb "#333333" title "hips"
unset multiplot
