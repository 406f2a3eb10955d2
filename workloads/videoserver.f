# description: video server: rate-limited streaming reads of huge files while one writer replaces old videos
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Readers stream 256 KiB reads from the active set; a writer swaps one passive video every $repintval s.
#
# Two file sets: videos being served (active) and videos on disk but not being
# watched (passive). $nthreads reader threads read the active set sequentially
# in $readiosize chunks; their combined bandwidth is capped by bwlimit, where each
# eventgen event allows 1 MiB, so $eventrate is roughly the total MiB/s served
# (divide by $nthreads for the per-stream rate). A single writer deletes a passive
# video, writes a replacement whole in $writeiosize chunks and then sleeps
# $repintval seconds, so write bandwidth is about $filesize / $repintval.
#
# Warning: the defaults are filebench's and are very large: 32 x 10 GiB active
# plus half of 194 x 10 GiB passive videos are created before the run (about
# 1.3 TB). Scale $filesize and the counts down for small file systems.

set $dir=/tmp
set $eventrate=96
set $filesize=10g
set $nthreads=48
set $numactivevids=32
set $numpassivevids=194
set $reuseit=false
set $readiosize=256k
set $writeiosize=1m
set $repintval=10

eventgen rate=$eventrate

define fileset name=activevids,path=$dir,size=$filesize,entries=$numactivevids,dirwidth=4,prealloc,paralloc,reuse=$reuseit
define fileset name=passivevids,path=$dir,size=$filesize,entries=$numpassivevids,dirwidth=20,prealloc=50,paralloc,reuse=$reuseit

define process name=vidwriter,instances=1
{
  thread name=vidwriter,memsize=10m,instances=1
  {
    flowop deletefile name=vidremover,filesetname=passivevids  # retire
    flowop createfile name=wrtopen,filesetname=passivevids,fd=1  # ingest-create
    flowop writewholefile name=newvid,iosize=$writeiosize,fd=1,srcfd=1  # ingest-write
    flowop closefile name=wrtclose,fd=1  # ingest-close
    flowop delay name=replaceinterval,value=$repintval  # ingest-pause
  }
}

define process name=vidreaders,instances=1
{
  thread name=vidreaders,memsize=10m,instances=$nthreads  # vidstreamer
  {
    flowop read name=vidreader,filesetname=activevids,iosize=$readiosize  # stream-read
    flowop bwlimit name=serverlimit,target=vidreader  # stream-limit
  }
}

echo "videoserver personality successfully loaded"
usage "videoserver variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the videos (fsgauge sets it from -d)"
usage "  set \$eventrate=<n>         total read bandwidth cap in MiB/s (default $eventrate)"
usage "  set \$filesize=<size>       size of each video (default $filesize)"
usage "  set \$nthreads=<n>          concurrent reader streams (default $nthreads)"
usage "  set \$numactivevids=<n>     videos being served (default $numactivevids)"
usage "  set \$numpassivevids=<n>    videos stored but idle (default $numpassivevids)"
usage "  set \$reuseit=<bool>        keep existing video files between runs (default $reuseit)"
usage "  set \$readiosize=<size>     streaming read size (default $readiosize)"
usage "  set \$writeiosize=<size>    write size when ingesting a video (default $writeiosize)"
usage "  set \$repintval=<secs>      pause between video replacements (default $repintval)"
