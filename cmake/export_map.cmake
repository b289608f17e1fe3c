# export_map.cmake - writes the linker version script of the shared library: the cf_* functions
# declared in the public headers are global, every other symbol is local.
# cmake -DHEADERS=include/chunkfill.h -DNET_HEADER=include/chunkfill_net.h -DOUT=... -P export_map.cmake
# Run at build time (a custom command that depends on the headers), so a function added to
# include/chunkfill.h is exported by the next build without a re-configure.
set(text "")
foreach(h ${HEADERS} ${NET_HEADER})
  file(READ "${h}" part)
  string(APPEND text "${part}")
endforeach()
string(REGEX MATCHALL "[ *](cf_[a-z0-9_]+)\\(" names "${text}")
list(TRANSFORM names REPLACE "^[ *](cf_[a-z0-9_]+)\\($" "\\1;")
list(REMOVE_DUPLICATES names)
string(REPLACE ";;" "; " list "${names};")
set(map "CHUNKFILL_0 {\n  global: ${list}\n  local: *;\n};\n")
# the file is rewritten only when its text changes (a header edit that adds no function does not
# relink the library)
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL map)
    return()
  endif()
endif()
file(WRITE "${OUT}.tmp" "${map}")
file(RENAME "${OUT}.tmp" "${OUT}")
