set terminal pngcairo size 960,640 noenhanced font 'sans,10'
set termoption noenhanced
set output 'sweep.png'
set title 'ttcp-sf: Throughput by buffer size per call' . "\n" . 'hmean of 4 runs +- sd, meter procstat; kernel 6.18 on host h'
set xlabel 'Buffer size per call (bytes)'
set ylabel 'Throughput (MB/s)'
set logscale x 2
set format x '%.0f'
set yrange [0:*]
set grid
set offsets graph 0.05, graph 0.05, graph 0.05, 0
set key outside below center
plot 'sweep.dat' index 0 using 1:2:3 with yerrorlines lt 1 title '6.18, sendfile', \
     'sweep.dat' index 1 using 1:2:3 with yerrorlines lt 2 title '6.18, write'
