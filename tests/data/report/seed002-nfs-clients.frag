Regular 2.5.7 resulted in 87 MB/sec with 100% CPU utilization. Your patch resulted 130 MB/sec with 82% CPU utilization!
