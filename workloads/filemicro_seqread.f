# description: sequential 1 MiB reads of a 1 GiB file for the length of the run
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread streams through a preallocated file, wrapping to the start at the end.
#
# With $cached=false the file's pages are dropped from the page cache after it
# is created, so the first pass starts cold; later passes may be served from
# memory if the file fits in RAM.

set $dir=/tmp
set $cached=false
set $filesize=1g
set $iosize=1m
set $nthreads=1

define file name=largefile,path=$dir,size=$filesize,prealloc,reuse,cached=$cached  # bigfile

define process name=filereader,instances=1
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # reader
  {
    flowop read name=seqread-file,filename=largefile,iosize=$iosize  # seq-read
  }
}

echo "filemicro_seqread personality successfully loaded"
usage "filemicro_seqread variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$cached=<bool>         leave the new file in the page cache (default $cached)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each read (default $iosize)"
usage "  set \$nthreads=<n>          reading threads (default $nthreads)"
