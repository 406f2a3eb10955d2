# description: caching web proxy: objects replaced (delete, create, append) and read five times as often
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Each pass evicts one cached object, stores a new one, then serves five cache hits.
#
# One loop pass is: delete an object; create a new one and append a random amount
# to it; then five open/read-whole/close of random objects. All objects live in
# one flat directory. The closing opslimit only throttles when an eventgen rate
# is set; without one the threads run free.
#
# Object size is a fixed 16 KiB, as in filebench 1.5's webproxy (older filebench
# releases drew sizes from an implicit gamma distribution).

set $dir=/tmp
set $nfiles=10000
set $meandirwidth=1000000
set $meanfilesize=16k
set $nthreads=100
set $meaniosize=16k
set $iosize=1m

define fileset name=bigfileset,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80  # proxycache

define process name=proxycache,instances=1  # proxy
{
  thread name=proxycache,memsize=10m,instances=$nthreads  # proxyworker
  {
    flowop deletefile name=deletefile1,filesetname=bigfileset  # evict
    flowop createfile name=createfile1,filesetname=bigfileset,fd=1  # store-create
    flowop appendfilerand name=appendfilerand1,iosize=$meaniosize,fd=1  # store-append
    flowop closefile name=closefile1,fd=1  # store-close
    flowop openfile name=openfile2,filesetname=bigfileset,fd=1  # hit1-open
    flowop readwholefile name=readfile2,iosize=$iosize,fd=1  # hit1-read
    flowop closefile name=closefile2,fd=1  # hit1-close
    flowop openfile name=openfile3,filesetname=bigfileset,fd=1  # hit2-open
    flowop readwholefile name=readfile3,iosize=$iosize,fd=1  # hit2-read
    flowop closefile name=closefile3,fd=1  # hit2-close
    flowop openfile name=openfile4,filesetname=bigfileset,fd=1  # hit3-open
    flowop readwholefile name=readfile4,iosize=$iosize,fd=1  # hit3-read
    flowop closefile name=closefile4,fd=1  # hit3-close
    flowop openfile name=openfile5,filesetname=bigfileset,fd=1  # hit4-open
    flowop readwholefile name=readfile5,iosize=$iosize,fd=1  # hit4-read
    flowop closefile name=closefile5,fd=1  # hit4-close
    flowop openfile name=openfile6,filesetname=bigfileset,fd=1  # hit5-open
    flowop readwholefile name=readfile6,iosize=$iosize,fd=1  # hit5-read
    flowop closefile name=closefile6,fd=1  # hit5-close
    flowop opslimit name=limit  # throttle
  }
}

echo "webproxy personality successfully loaded"
usage "webproxy variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the cache (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            cached objects (default $nfiles)"
usage "  set \$meandirwidth=<n>      files per directory (default $meandirwidth, i.e. one directory)"
usage "  set \$meanfilesize=<size>   object size (default $meanfilesize)"
usage "  set \$nthreads=<n>          concurrent proxy threads (default $nthreads)"
usage "  set \$meaniosize=<size>     upper bound of each random append (default $meaniosize)"
usage "  set \$iosize=<size>         read size for whole-file reads (default $iosize)"
