NFS/UDP client results ======================
