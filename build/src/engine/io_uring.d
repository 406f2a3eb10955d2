build/src/engine/io_uring.o: src/engine/io_uring.c
