#!/bin/bash
# The official image's kafka-configs.sh, as Kafka's own script runs it.
exec java -Xms16m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
  -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties \
  -cp '/opt/kafka/libs/*' kafka.admin.ConfigCommand "$@"
