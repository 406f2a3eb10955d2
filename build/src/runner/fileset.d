build/src/runner/fileset.o: src/runner/fileset.c src/runner/fileset.h \
 src/util/rand.h src/workload/workload.h src/engine/engine.h \
 src/runner/data.h src/util/util.h
src/runner/fileset.h:
src/util/rand.h:
src/workload/workload.h:
src/engine/engine.h:
src/runner/data.h:
src/util/util.h:
