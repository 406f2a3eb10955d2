# create + close + unlink of empty files, one thread: the loop
# bench/overhead.sh runs against a bare C loop, and
# bench/pages-per-syscall.sh counts the pages of.
define fileset name=files,path=$dir,size=0,entries=100000,dirwidth=1000000,prealloc=0
define process name=p,instances=1 {
  thread name=t,memsize=1m,instances=1 {
    flowop createfile name=create,filesetname=files,fd=1
    flowop closefile name=close,fd=1
    flowop deletefile name=delete,filesetname=files
  }
}
