NFS/UDP server results ======================
