ttcp-sf Results ===============
