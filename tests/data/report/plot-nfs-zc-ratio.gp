set terminal pngcairo size 960,640 noenhanced font 'sans,10'
set termoption noenhanced
set output 'nfs-zc-ratio.png'
set title 'nfsbench: Read throughput, 2.4.1-pre10+zc / 2.4.1-pre10, by NFS rsize' . "\n" . 'means of 1 run (transcribed), single runs have no interval'
set xlabel 'NFS rsize (bytes)'
set ylabel 'Read throughput ratio, 2.4.1-pre10+zc / 2.4.1-pre10'
set logscale x 2
set format x '%.0f'
set yrange [0.7551:1.25]
set grid
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set key outside below center
plot 'nfs-zc-ratio.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lt 1 notitle, \
     'nfs-zc-ratio.dat' index 0 using 1:2 with linespoints lt 1 title '2.4.1-pre10+zc / 2.4.1-pre10', \
     1 with lines dt 2 lc 0 title '1 = no change'
