# FABRIK on a six-bone arm: the chain after 0, 1, 2, 3 and 10 iterations,
# and the tip's distance to the target against iterations for FABRIK and CCD
# (data from examples/11_fabrik.c).
#   example_11_fabrik --plot chain > chain.dat
#   example_11_fabrik --plot converge > converge.dat
#   gnuplot -e "chain='chain.dat'; conv='converge.dat'; out='../img/ik_fabrik.png'" ik_fabrik.gp
if (!exists("chain")) chain = 'chain.dat'
if (!exists("conv")) conv = 'converge.dat'
if (!exists("out")) out = '../img/ik_fabrik.png'
set terminal pngcairo size 900,400 font "sans,10"
set output out
set multiplot layout 1,2
set title "FABRIK: the chain after k iterations"
set xlabel "x (m)"
set ylabel "y (m)"
set size ratio -1
set key below horizontal
set grid
its = "0 1 2 3 10"
plot for [i=0:4] chain index i using 1:2 with linespoints pt 7 ps 0.6 lw 2 \
         title sprintf("k = %s", word(its, i + 1)), \
     chain index 5 using 1:2 with points pt 3 ps 2 lw 2 lc rgb "#000000" title "target"
set size noratio
set title "Tip to target against iterations"
set xlabel "iterations"
set ylabel "distance (m)"
set logscale y
set format y "10^{%L}"
set key inside top right box opaque
plot conv using 1:2 with linespoints pt 7 ps 0.5 lw 2 title "FABRIK", \
     conv using 1:3 with linespoints pt 5 ps 0.5 lw 2 title "CCD"
unset multiplot
