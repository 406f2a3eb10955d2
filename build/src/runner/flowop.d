build/src/runner/flowop.o: src/runner/flowop.c src/runner/internal.h \
 src/engine/engine.h src/runner/fileset.h src/util/rand.h \
 src/workload/workload.h src/runner/runner.h src/runner/data.h \
 src/stats/result.h src/stats/hist.h src/util/util.h
src/runner/internal.h:
src/engine/engine.h:
src/runner/fileset.h:
src/util/rand.h:
src/workload/workload.h:
src/runner/runner.h:
src/runner/data.h:
src/stats/result.h:
src/stats/hist.h:
src/util/util.h:
