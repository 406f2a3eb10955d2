# description: database OLTP: many small random reads, async batched writes, and a synchronous redo log
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Emulates an Oracle-style I/O model: shadow readers, database writers and a log writer process.
#
# Three kinds of processes share two file sets:
#   shadow (200 processes): random 2 KiB reads of the data files, some CPU work
#     (hog), then one semaphore post each to the log writer and to the database
#     writers, so that every read "transaction" generates write work.
#   dbwr (10 processes): once enough posts have arrived, issue 100 random async
#     2 KiB O_DSYNC writes to the data files, burn CPU, then reap completions.
#   lgwr (1 process): once enough posts have arrived, one random async 256 KiB
#     O_DSYNC write to the redo log, then reap it.
# The semblock value is how many posts a writer consumes per pass; highwater caps
# how far posters may run ahead. eventlimit paces the shadows when $eventrate is
# non-zero; 0 lets them run free. Files are preallocated and kept between runs
# (reuse). Set $directio=true to bypass the page cache as a real database would.

set $dir=/tmp
set $eventrate=0
set $iosize=2k
set $nshadows=200
set $ndbwriters=10
set $usermode=200000
set $filesize=10m
set $memperthread=1m
set $workingset=0
set $cached=false
set $logfilesize=10m
set $nfiles=10
set $nlogfiles=1
set $directio=false

eventgen rate=$eventrate

define fileset name=datafiles,path=$dir,size=$filesize,entries=$nfiles,dirwidth=1024,prealloc=100,cached=$cached,reuse
define fileset name=redolog,path=$dir,size=$logfilesize,entries=$nlogfiles,dirwidth=1024,prealloc=100,cached=$cached,reuse

define process name=lgwr,instances=1
{
  thread name=logwriter,memsize=$memperthread,useism
  {
    flowop aiowrite name=log-write,filesetname=redolog,iosize=256k,random,directio=$directio,dsync
    flowop aiowait name=log-reap
    flowop semblock name=log-wait,value=3200,highwater=1000
  }
}

define process name=dbwr,instances=$ndbwriters
{
  thread name=dbwriter,memsize=$memperthread,useism
  {
    flowop aiowrite name=db-write,filesetname=datafiles,iosize=$iosize,workingset=$workingset,random,iters=100,opennext,directio=$directio,dsync
    flowop hog name=db-cpu,value=10000
    flowop semblock name=db-wait,value=1000,highwater=2000
    flowop aiowait name=db-reap
  }
}

define process name=shadow,instances=$nshadows
{
  thread name=shadowreader,memsize=$memperthread,useism
  {
    flowop read name=txn-read,filesetname=datafiles,iosize=$iosize,workingset=$workingset,random,opennext,directio=$directio
    flowop hog name=txn-cpu,value=$usermode
    flowop sempost name=txn-post-log,value=1,target=log-wait,blocking
    flowop sempost name=txn-post-db,value=1,target=db-wait,blocking
    flowop eventlimit name=txn-pace
  }
}

echo "oltp personality successfully loaded"
usage "oltp variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the database (fsgauge sets it from -d)"
usage "  set \$eventrate=<n>         transactions per second for all shadows, 0 = unlimited (default $eventrate)"
usage "  set \$iosize=<size>         data block size for reads and writes (default $iosize)"
usage "  set \$nshadows=<n>          shadow reader processes (default $nshadows)"
usage "  set \$ndbwriters=<n>        database writer processes (default $ndbwriters)"
usage "  set \$usermode=<n>          CPU work per transaction, memory touches (default $usermode)"
usage "  set \$filesize=<size>       size of each data file (default $filesize)"
usage "  set \$nfiles=<n>            number of data files (default $nfiles)"
usage "  set \$logfilesize=<size>    size of each redo log file (default $logfilesize)"
usage "  set \$nlogfiles=<n>         number of redo log files (default $nlogfiles)"
usage "  set \$memperthread=<size>   per-thread memory (default $memperthread)"
usage "  set \$workingset=<size>     limit I/O to the first part of each file, 0 = whole file (default $workingset)"
usage "  set \$cached=<bool>         keep created files in the page cache (default $cached)"
usage "  set \$directio=<bool>       use O_DIRECT for data and log I/O (default $directio)"
