build/src/util/rand.o: src/util/rand.c src/util/rand.h
src/util/rand.h:
