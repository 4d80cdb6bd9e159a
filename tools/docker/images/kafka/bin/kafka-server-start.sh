#!/bin/bash
# The official image's kafka-server-start.sh: a broker on the given server.properties.
# shellcheck disable=SC2086  # the *_OPTS variables are lists of flags, as in Kafka's scripts
exec java ${KAFKA_HEAP_OPTS:--Xms256m -Xmx1g} \
  ${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true} \
  ${KAFKA_OPTS:-} -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -cp '/opt/kafka/libs/*' kafka.Kafka "$1"
