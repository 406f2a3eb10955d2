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

define fileset name=proxycache,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80

define process name=proxy,instances=1
{
  thread name=proxyworker,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=evict,filesetname=proxycache
    flowop createfile name=store-create,filesetname=proxycache,fd=1
    flowop appendfilerand name=store-append,iosize=$meaniosize,fd=1
    flowop closefile name=store-close,fd=1
    flowop openfile name=hit1-open,filesetname=proxycache,fd=1
    flowop readwholefile name=hit1-read,iosize=$iosize,fd=1
    flowop closefile name=hit1-close,fd=1
    flowop openfile name=hit2-open,filesetname=proxycache,fd=1
    flowop readwholefile name=hit2-read,iosize=$iosize,fd=1
    flowop closefile name=hit2-close,fd=1
    flowop openfile name=hit3-open,filesetname=proxycache,fd=1
    flowop readwholefile name=hit3-read,iosize=$iosize,fd=1
    flowop closefile name=hit3-close,fd=1
    flowop openfile name=hit4-open,filesetname=proxycache,fd=1
    flowop readwholefile name=hit4-read,iosize=$iosize,fd=1
    flowop closefile name=hit4-close,fd=1
    flowop openfile name=hit5-open,filesetname=proxycache,fd=1
    flowop readwholefile name=hit5-read,iosize=$iosize,fd=1
    flowop closefile name=hit5-close,fd=1
    flowop opslimit name=throttle
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
