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
# launch, rmw and appnd are composite flowops (as in filebench) called with
# iters; their steps are reported as CALL.STEP (rmw1.readfile1).
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

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$totalfiles,dirwidth=$meandirwidth,prealloc=60,cached=$cached  # exported

# rmw: read a file whole, write a replacement of the same size, close both,
# delete the original
define flowop name=rmw, $filesetrmw
{
  flowop openfile name=openfile1,filesetname=$filesetrmw,indexed=$fileidx,fd=1
  flowop readwholefile name=readfile1,iosize=$rdiosize,fd=1
  flowop createfile name=newfile2,filesetname=$filesetrmw,indexed=$fileidx,fd=2
  flowop writewholefile name=writefile2,iosize=$wrtiosize,fd=2,srcfd=1
  flowop closefile name=closefile1,fd=1
  flowop closefile name=closefile2,fd=2
  flowop deletefile name=deletefile1,fd=1
}

# launch: open and read three files whole, interleaving the closes
define flowop name=launch, $filesetlch
{
  flowop openfile name=openfile3,filesetname=$filesetlch,indexed=$fileidx,fd=3
  flowop readwholefile name=readfile3,iosize=$rdiosize,fd=3
  flowop openfile name=openfile4,filesetname=$filesetlch,indexed=$fileidx,fd=4
  flowop readwholefile name=readfile4,iosize=$rdiosize,fd=4
  flowop closefile name=closefile3,fd=3
  flowop openfile name=openfile5,filesetname=$filesetlch,indexed=$fileidx,fd=5
  flowop readwholefile name=readfile5,iosize=$rdiosize,fd=5
  flowop closefile name=closefile4,fd=4
  flowop closefile name=closefile5,fd=5
}

# appnd: open a file, append a random table-driven amount, close
define flowop name=appnd, $filesetapd
{
  flowop openfile name=openfile6,filesetname=$filesetapd,indexed=$fileidx,fd=6
  flowop appendfilerand name=appendfilerand6,iosize=$wrtiosize,fd=6
  flowop closefile name=closefile6,fd=6
}

define process name=netclient,instances=1
{
  thread name=fileuser,memsize=10m,instances=$nthreads  # nfsuser
  {
    flowop launch name=launch1,iters=1,$filesetlch=bigfileset
    flowop rmw name=rmw1,iters=6,$filesetrmw=bigfileset
    flowop appnd name=appnd1,iters=3,$filesetapd=bigfileset
    flowop statfile name=statfile1,filesetname=bigfileset,indexed=$fileidx  # getattr
    flowop eventlimit name=ratecontrol  # pace
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
