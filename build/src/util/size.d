build/src/util/size.o: src/util/size.c src/util/size.h
src/util/size.h:
