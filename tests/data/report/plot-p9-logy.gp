set terminal pngcairo size 960,640 noenhanced font 'sans,10'
set termoption noenhanced
set output 'p9-logy.png'
set title 'p9bench: Throughput by IO size' . "\n" . 'hmean of 1 run +- sd, meter none (transcribed)'
set xlabel 'IO size (bytes)'
set ylabel 'Throughput (MB/s)'
set logscale x 2
set format x '%.0f'
set logscale y 10
set grid
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set key outside below center
plot 'p9-logy.dat' index 0 using 1:2:3 with yerrorlines lt 1 title '9p-zc-rfc, write, copy', \
     'p9-logy.dat' index 1 using 1:2:3 with yerrorlines lt 2 title '9p-zc-rfc, write, direct', \
     'p9-logy.dat' index 2 using 1:2:3 with yerrorlines lt 3 title '9p-zc-rfc, read, copy', \
     'p9-logy.dat' index 3 using 1:2:3 with yerrorlines lt 4 title '9p-zc-rfc, read, direct'
