# Look-at with a 70 degree limit over spine, neck and head (data from examples/12_look_at.c).
#   example_12_look_at --plot > look_at.dat
#   gnuplot -e "data='look_at.dat'; out='../img/ik_look_at.png'" ik_look_at.gp
if (!exists("data")) data = 'look_at.dat'
if (!exists("out")) out = '../img/ik_look_at.png'
set terminal pngcairo size 760,380 font "sans,10"
set output out
set title "CMU head looking at a point circling it at eye height, limit 70 degrees"
set xlabel "target around the character (degrees from the face's heading)"
set ylabel "degrees"
set xrange [-180:180]
set xtics 30
set key top center box opaque
set grid
plot data using 1:2 with lines lw 2 lc rgb "#1f77b4" title "face turned", \
     data using 1:3 with lines lw 2 lc rgb "#d62728" title "angle left to the target", \
     70 with lines lw 1 dt 2 lc rgb "#888888" title "limit"
