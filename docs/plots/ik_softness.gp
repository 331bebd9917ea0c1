# Soft two-bone IK: reached distance against target distance (data from examples/10_two_bone.c).
#   example_10_two_bone --plot soft > soft.dat
#   gnuplot -e "data='soft.dat'; out='../img/ik_softness.png'" ik_softness.gp
if (!exists("data")) data = 'soft.dat'
if (!exists("out")) out = '../img/ik_softness.png'
set terminal pngcairo size 760,380 font "sans,10"
set output out
set title "Hip-to-foot distance reached for a target at a given distance (CMU left leg)"
set xlabel "target distance / full reach"
set ylabel "reached distance / full reach"
set key bottom right box opaque
set grid
set yrange [0.55:1.05]
plot data using 1:2 with lines lw 2 lc rgb "#1f77b4" title "softness 0 (snaps straight)", \
     data using 1:3 with lines lw 2 lc rgb "#2ca02c" title "softness 0.1", \
     data using 1:4 with lines lw 2 lc rgb "#ff7f0e" title "softness 0.3", \
     x with lines lw 1 dt 2 lc rgb "#888888" title "target"
