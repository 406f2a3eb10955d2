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
define fileset name=logfile,path=$dir,size=$logfilesize,entries=$nlogfiles,dirwidth=1024,prealloc=100,cached=$cached,reuse  # redolog

define process name=lgwr,instances=1
{
  thread name=lgwr,memsize=$memperthread,useism  # logwriter
  {
    flowop aiowrite name=lg-write,filesetname=logfile,iosize=256k,random,directio=$directio,dsync  # log-write
    flowop aiowait name=lg-aiowait  # log-reap
    flowop semblock name=lg-block,value=3200,highwater=1000  # log-wait
  }
}

define process name=dbwr,instances=$ndbwriters
{
  thread name=dbwr,memsize=$memperthread,useism  # dbwriter
  {
    flowop aiowrite name=dbwrite-a,filesetname=datafiles,iosize=$iosize,workingset=$workingset,random,iters=100,opennext,directio=$directio,dsync  # db-write
    flowop hog name=dbwr-hog,value=10000  # db-cpu
    flowop semblock name=dbwr-block,value=1000,highwater=2000  # db-wait
    flowop aiowait name=dbwr-aiowait  # db-reap
  }
}

define process name=shadow,instances=$nshadows
{
  thread name=shadow,memsize=$memperthread,useism  # shadowreader
  {
    flowop read name=shadowread,filesetname=datafiles,iosize=$iosize,workingset=$workingset,random,opennext,directio=$directio  # txn-read
    flowop hog name=shadowhog,value=$usermode  # txn-cpu
    flowop sempost name=shadow-post-lg,value=1,target=lg-block,blocking  # txn-post-log
    flowop sempost name=shadow-post-dbwr,value=1,target=dbwr-block,blocking  # txn-post-db
    flowop eventlimit name=random-rate  # txn-pace
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
