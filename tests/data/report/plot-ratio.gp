set terminal pngcairo size 960,640 noenhanced font 'sans,10'
set termoption noenhanced
set output 'ratio.png'
set title 'ttcp-sf: Throughput, sendfile / write, by buffer size per call' . "\n" . 'means of 4 runs, band: 95% interval; kernel 6.18 on host h'
set xlabel 'Buffer size per call (bytes)'
set ylabel 'Throughput ratio, sendfile / write'
set logscale x 2
set format x '%.0f'
set yrange [0.8:1.521]
set grid
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set key outside below center
plot 'ratio.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lt 1 notitle, \
     'ratio.dat' index 0 using 1:2 with linespoints lt 1 title '6.18', \
     1 with lines dt 2 lc 0 title '1 = no change'
