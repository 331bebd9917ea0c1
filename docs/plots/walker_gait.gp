# Spider gait diagram and body height (data from examples/41_walker.c --plot).
#   gnuplot -e "data='walker.dat'; out='../img/walker_gait.png'" walker_gait.gp
if (!exists("data")) data = 'walker.dat'
if (!exists("out")) out = '../img/walker_gait.png'
set terminal pngcairo size 760,620 font "sans,10"
set output out
set multiplot layout 2,1 title "Walker: 8 legs in 2 alternating groups, 0.5 m/s over bumps, under a beam near 8.5 s"
set grid
set xrange [2:5]
set yrange [-0.5:7.5]
set ytics ("L1" 0, "L2" 1, "L3" 2, "L4" 3, "R1" 4, "R2" 5, "R3" 6, "R4" 7)
set ylabel "leg (bars: in the air)"
unset key
plot for [i=0:7] data using 1:(column(i+2) == 1 ? i : 1/0) with points pt 5 ps 0.45 \
     lc (i % 4 + i / 4) % 2 + 1
set xrange [0:20]
set yrange [0.15:0.27]
set ytics auto
set ylabel "body height above ground (m)"
set xlabel "time (s)"
set key bottom left
plot data using 1:($13 == 1 ? 0.27 : 1/0) with impulses lc rgb "#dddddd" title "under the beam", \
     data using 1:10 with lines lw 2 lc rgb "#1f77b4" title "body", \
     data using 1:11 with lines dt 2 lc rgb "#d62728" title "allowed (dip, beam, min 0.10)"
unset multiplot
