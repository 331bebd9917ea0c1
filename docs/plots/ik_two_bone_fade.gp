# Two-bone IK faded in and out while a CMU walk plays (data from examples/10_two_bone.c).
#   example_10_two_bone --plot fade > fade.dat
#   gnuplot -e "data='fade.dat'; out='../img/ik_two_bone_fade.png'" ik_two_bone_fade.gp
if (!exists("data")) data = 'fade.dat'
if (!exists("out")) out = '../img/ik_two_bone_fade.png'
set terminal pngcairo size 760,380 font "sans,10"
set output out
set title "Left foot to a target below the hip while the IK weight fades in (frames 20-40) and out (70-90)"
set xlabel "frame (30 fps)"
set ylabel "foot to target (m)"
set y2label "IK weight"
set y2range [0:1.05]
set ytics nomirror
set y2tics 0.25
set key top right box opaque
set grid
plot data using 1:3 with lines lw 1 dt 2 lc rgb "#888888" title "animation only", \
     data using 1:4 with lines lw 2 lc rgb "#1f77b4" title "with two-bone IK", \
     data using 1:2 axes x1y2 with lines lw 1 lc rgb "#d62728" title "weight"
