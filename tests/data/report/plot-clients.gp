set terminal pngcairo size 960,640 noenhanced font 'sans,10'
set termoption noenhanced
set output 'clients.png'
set title 'nfsbench: Read throughput by clients' . "\n" . 'hmean of 3 runs +- sd, meter procstat; kernel 6.18 on host h'
set xlabel 'Clients'
set ylabel 'Read throughput (MB/s)'
set logscale x 2
set format x '%.0f'
set yrange [0:*]
set grid
set offsets graph 0.05, graph 0.05, graph 0.05, 0
set key outside below center
plot 'clients.dat' index 0 using 1:2:3 with yerrorlines lt 1 title '6.18'
