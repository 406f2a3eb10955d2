# description: network file server client: hot-file reads, replace-style rewrites, appends and stats
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A paced client over a large tree with table-driven file and I/O sizes and a gamma-skewed file choice.
#
# Every file choice uses indexed=$fileidx, a gamma randvar, so a small group of
# low-numbered files is picked far more often than the rest (hot files).
# One loop pass is:
#   launch, once: open and read three files whole, interleaving the closes;
#   rmw, six times: read a file whole, create a replacement of the same size,
#     close both and delete the original;
#   append, three times: open a file, append a random table-driven amount, close;
#   then stat a file and wait for the next eventgen event ($eventrate passes/s).
# Filebench writes launch/rmw/append as composite flowops repeated with iters;
# this file spells the repetitions out so each step is an ordinary flowop.
# Filebench sets the entry count as $nfiles * $eventrate (10000 * 10); here it is
# the plain variable $totalfiles.

set $dir=/tmp
set $cached=false
set $eventrate=10
set $meandirwidth=20
set $nthreads=1
set $totalfiles=100000

eventgen rate=$eventrate

define randvar name=$wrtiosize,type=tabular,min=1k,round=1k,randtable=
{{ 0,   1k,   7k},
 {50,   9k,  15k},
 {14,  17k,  23k},
 {14,  33k,  39k},
 {12,  65k,  71k},
 {10, 129k, 135k}
}

define randvar name=$rdiosize,type=tabular,min=8k,round=1k,randtable=
{{85,   8k,   8k},
 { 8,  17k,  23k},
 { 4,  33k,  39k},
 { 2,  65k,  71k},
 { 1, 129k, 135k}
}

define randvar name=$filesize,type=tabular,min=1k,round=1k,randtable=
{{33,   1k,    1k},
 {21,   1k,    3k},
 {13,   3k,    5k},
 {10,   5k,   11k},
 { 8,  11k,   21k},
 { 5,  21k,   43k},
 { 4,  43k,   85k},
 { 3,  85k,  171k},
 { 2, 171k,  341k},
 { 1, 341k, 1707k}
}

define randvar name=$fileidx,type=gamma,min=0,gamma=100

define fileset name=exported,path=$dir,size=$filesize,entries=$totalfiles,dirwidth=$meandirwidth,prealloc=60,cached=$cached

define process name=netclient,instances=1
{
  thread name=nfsuser,memsize=10m,instances=$nthreads
  {
    flowop openfile name=launch-open3,filesetname=exported,indexed=$fileidx,fd=3
    flowop readwholefile name=launch-read3,iosize=$rdiosize,fd=3
    flowop openfile name=launch-open4,filesetname=exported,indexed=$fileidx,fd=4
    flowop readwholefile name=launch-read4,iosize=$rdiosize,fd=4
    flowop closefile name=launch-close3,fd=3
    flowop openfile name=launch-open5,filesetname=exported,indexed=$fileidx,fd=5
    flowop readwholefile name=launch-read5,iosize=$rdiosize,fd=5
    flowop closefile name=launch-close4,fd=4
    flowop closefile name=launch-close5,fd=5
    flowop openfile name=rmw1-open,filesetname=exported,indexed=$fileidx,fd=1
    flowop readwholefile name=rmw1-read,iosize=$rdiosize,fd=1
    flowop createfile name=rmw1-create,filesetname=exported,indexed=$fileidx,fd=2
    flowop writewholefile name=rmw1-write,iosize=$wrtiosize,fd=2,srcfd=1
    flowop closefile name=rmw1-close1,fd=1
    flowop closefile name=rmw1-close2,fd=2
    flowop deletefile name=rmw1-delete,fd=1
    flowop openfile name=rmw2-open,filesetname=exported,indexed=$fileidx,fd=1
    flowop readwholefile name=rmw2-read,iosize=$rdiosize,fd=1
    flowop createfile name=rmw2-create,filesetname=exported,indexed=$fileidx,fd=2
    flowop writewholefile name=rmw2-write,iosize=$wrtiosize,fd=2,srcfd=1
    flowop closefile name=rmw2-close1,fd=1
    flowop closefile name=rmw2-close2,fd=2
    flowop deletefile name=rmw2-delete,fd=1
    flowop openfile name=rmw3-open,filesetname=exported,indexed=$fileidx,fd=1
    flowop readwholefile name=rmw3-read,iosize=$rdiosize,fd=1
    flowop createfile name=rmw3-create,filesetname=exported,indexed=$fileidx,fd=2
    flowop writewholefile name=rmw3-write,iosize=$wrtiosize,fd=2,srcfd=1
    flowop closefile name=rmw3-close1,fd=1
    flowop closefile name=rmw3-close2,fd=2
    flowop deletefile name=rmw3-delete,fd=1
    flowop openfile name=rmw4-open,filesetname=exported,indexed=$fileidx,fd=1
    flowop readwholefile name=rmw4-read,iosize=$rdiosize,fd=1
    flowop createfile name=rmw4-create,filesetname=exported,indexed=$fileidx,fd=2
    flowop writewholefile name=rmw4-write,iosize=$wrtiosize,fd=2,srcfd=1
    flowop closefile name=rmw4-close1,fd=1
    flowop closefile name=rmw4-close2,fd=2
    flowop deletefile name=rmw4-delete,fd=1
    flowop openfile name=rmw5-open,filesetname=exported,indexed=$fileidx,fd=1
    flowop readwholefile name=rmw5-read,iosize=$rdiosize,fd=1
    flowop createfile name=rmw5-create,filesetname=exported,indexed=$fileidx,fd=2
    flowop writewholefile name=rmw5-write,iosize=$wrtiosize,fd=2,srcfd=1
    flowop closefile name=rmw5-close1,fd=1
    flowop closefile name=rmw5-close2,fd=2
    flowop deletefile name=rmw5-delete,fd=1
    flowop openfile name=rmw6-open,filesetname=exported,indexed=$fileidx,fd=1
    flowop readwholefile name=rmw6-read,iosize=$rdiosize,fd=1
    flowop createfile name=rmw6-create,filesetname=exported,indexed=$fileidx,fd=2
    flowop writewholefile name=rmw6-write,iosize=$wrtiosize,fd=2,srcfd=1
    flowop closefile name=rmw6-close1,fd=1
    flowop closefile name=rmw6-close2,fd=2
    flowop deletefile name=rmw6-delete,fd=1
    flowop openfile name=append1-open,filesetname=exported,indexed=$fileidx,fd=6
    flowop appendfilerand name=append1-write,iosize=$wrtiosize,fd=6
    flowop closefile name=append1-close,fd=6
    flowop openfile name=append2-open,filesetname=exported,indexed=$fileidx,fd=6
    flowop appendfilerand name=append2-write,iosize=$wrtiosize,fd=6
    flowop closefile name=append2-close,fd=6
    flowop openfile name=append3-open,filesetname=exported,indexed=$fileidx,fd=6
    flowop appendfilerand name=append3-write,iosize=$wrtiosize,fd=6
    flowop closefile name=append3-close,fd=6
    flowop statfile name=getattr,filesetname=exported,indexed=$fileidx
    flowop eventlimit name=pace
  }
}

echo "networkfs personality successfully loaded"
usage "networkfs variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$cached=<bool>         keep created files in the page cache (default $cached)"
usage "  set \$eventrate=<n>         loop passes per second for all threads, 0 = unlimited (default $eventrate)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          client threads (default $nthreads)"
usage "  set \$totalfiles=<n>        files in the tree, 60% created up front (default $totalfiles)"
usage "  file sizes, read and write sizes come from the tables above; file choice from gamma \$fileidx"
