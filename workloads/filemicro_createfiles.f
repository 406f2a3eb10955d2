# description: create and write whole small files into a half-populated flat directory, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread runs create, write-whole, close; it stops after $count operations (5000 files).
#
# The set has 20000 slots and half of them exist before the run. Each pass is
# three operations, so the default $count of 15000 means 5000 new files
# (finishoncount without a target counts every operation of the run). Sizes are
# a fixed 1 KiB, as in filebench 1.5 (older releases drew a gamma distribution).

set $dir=/tmp
set $count=15000
set $filesize=1k
set $iosize=1m
set $meandirwidth=100000
set $nfiles=20000
set $nthreads=1

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=50  # smallfiles

define process name=filecreate,instances=1
{
  thread name=filecreatethread,memsize=10m,instances=$nthreads  # creator
  {
    flowop createfile name=createfile1,filesetname=bigfileset,fd=1  # create
    flowop writewholefile name=writefile1,iosize=$iosize,fd=1  # fill
    flowop closefile name=closefile1,fd=1  # close
    flowop finishoncount name=finish,value=$count  # done
  }
}

echo "filemicro_createfiles personality successfully loaded"
usage "filemicro_createfiles variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$count=<n>             operations before the run ends, 3 per file (default $count)"
usage "  set \$filesize=<size>       size of each file (default $filesize)"
usage "  set \$iosize=<size>         write size (default $iosize)"
usage "  set \$meandirwidth=<n>      files per directory (default $meandirwidth, i.e. one directory)"
usage "  set \$nfiles=<n>            slots in the set, half created up front (default $nfiles)"
usage "  set \$nthreads=<n>          creating threads (default $nthreads)"
