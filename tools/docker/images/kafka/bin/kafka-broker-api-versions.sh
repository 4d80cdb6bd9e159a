#!/bin/bash
# The official image's health-check tool, as Kafka's own script runs it.
exec java -Xms16m -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
  -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties \
  -cp '/opt/kafka/libs/*' kafka.admin.BrokerApiVersionsCommand "$@"
