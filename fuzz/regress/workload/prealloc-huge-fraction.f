define fileset name=x,prealloc=1e52
