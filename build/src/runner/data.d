build/src/runner/data.o: src/runner/data.c src/runner/data.h \
 src/util/rand.h
src/runner/data.h:
src/util/rand.h:
