#!/bin/bash
# usage: case.sh SIZE MODE COUNT [node flags...]
size=$1; mode=$2; count=$3; shift 3
manifest=$(cat /work/main/bench/.cache/corpus-$size-static-g1-s1d917510.json)
path=/work/main/bench/.cache/corpus-$size-static-g1-s1d917510.db
cd /work/main && node "$@" bench/ingest.mjs --case "{\"size\":$size,\"mode\":\"$mode\",\"count\":$count,\"batch\":64,\"alone\":64,\"corpus\":{\"path\":\"$path\",\"manifest\":$manifest}}"
