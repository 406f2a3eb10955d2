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

define fileset name=mailspool,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80

define process name=mailserver,instances=1
{
  thread name=mailworker,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=expunge,filesetname=mailspool
    flowop createfile name=deliver-create,filesetname=mailspool,fd=1
    flowop appendfilerand name=deliver-append,iosize=$meanappendsize,fd=1
    flowop fsync name=deliver-fsync,fd=1
    flowop closefile name=deliver-close,fd=1
    flowop openfile name=update-open,filesetname=mailspool,fd=1
    flowop readwholefile name=update-read,iosize=$iosize,fd=1
    flowop appendfilerand name=update-append,iosize=$meanappendsize,fd=1
    flowop fsync name=update-fsync,fd=1
    flowop closefile name=update-close,fd=1
    flowop openfile name=fetch-open,filesetname=mailspool,fd=1
    flowop readwholefile name=fetch-read,iosize=$iosize,fd=1
    flowop closefile name=fetch-close,fd=1
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
