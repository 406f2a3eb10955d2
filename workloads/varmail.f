# description: mail server spool: small files created, appended with fsync, read back and deleted
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Each thread delivers, reads, updates and expunges messages in one flat spool directory.
#
# One loop pass is: expunge an old message; deliver a new one (create, random-size
# append, fsync, close); open a message, read it whole, append a status update and
# fsync; open another message and read it whole. The fsyncs make this workload
# sensitive to synchronous-write and journal latency, much like a postmark-style
# mail server run with many concurrent clients.
#
# File sizes follow a gamma distribution (mean 16 KiB, shape 1.5), given as a cvar
# the way filebench 1.5 does. The huge directory width keeps every file in a
# single directory.

set $dir=/tmp
set $nfiles=1000
set $meandirwidth=1000000
set $filesize=cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5)
set $nthreads=16
set $iosize=1m
set $meanappendsize=16k

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80  # mailspool

define process name=filereader,instances=1  # mailserver
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # mailworker
  {
    flowop deletefile name=deletefile1,filesetname=bigfileset  # expunge
    flowop createfile name=createfile2,filesetname=bigfileset,fd=1  # deliver-create
    flowop appendfilerand name=appendfilerand2,iosize=$meanappendsize,fd=1  # deliver-append
    flowop fsync name=fsyncfile2,fd=1  # deliver-fsync
    flowop closefile name=closefile2,fd=1  # deliver-close
    flowop openfile name=openfile3,filesetname=bigfileset,fd=1  # update-open
    flowop readwholefile name=readfile3,iosize=$iosize,fd=1  # update-read
    flowop appendfilerand name=appendfilerand3,iosize=$meanappendsize,fd=1  # update-append
    flowop fsync name=fsyncfile3,fd=1  # update-fsync
    flowop closefile name=closefile3,fd=1  # update-close
    flowop openfile name=openfile4,filesetname=bigfileset,fd=1  # fetch-open
    flowop readwholefile name=readfile4,iosize=$iosize,fd=1  # fetch-read
    flowop closefile name=closefile4,fd=1  # fetch-close
  }
}

echo "varmail personality successfully loaded"
usage "varmail variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the spool (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            messages in the spool (default $nfiles)"
usage "  set \$meandirwidth=<n>      files per directory (default $meandirwidth, i.e. one directory)"
usage "  set \$filesize=<size|cvar>  message size (default gamma, mean 16k, shape 1.5)"
usage "  set \$nthreads=<n>          concurrent mail threads (default $nthreads)"
usage "  set \$iosize=<size>         read size for whole-file reads (default $iosize)"
usage "  set \$meanappendsize=<size> upper bound of each random append (default $meanappendsize)"
