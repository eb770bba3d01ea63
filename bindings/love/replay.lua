-- Run a hopkit-sim sticks file (a recording of the handheld's stick input) through the demo rig
-- over the C ABI and print the state hash, as `hopkit-sim hash --sticks FILE` does:
--
--   luajit bindings/love/replay.lua target/release/libhopkit_ffi.so demo-sticks.txt [--ticks N]
local dir = (arg[0]:match("^(.*)[/\\]") or ".")
package.path = dir .. "/?.lua;" .. package.path
local hopkit = require("hopkit")

local lib_path, sticks_path = arg[1], arg[2]
local ticks_limit
if arg[3] == "--ticks" then ticks_limit = tonumber(arg[4]) end
if not lib_path or not sticks_path or (arg[3] and not ticks_limit) then
  io.stderr:write("usage: luajit replay.lua LIBHOPKIT_FFI.so STICKS_FILE [--ticks N]\n")
  os.exit(2)
end
hopkit.load(lib_path)
local ok, ticks = pcall(hopkit.read_sticks, sticks_path)
if not ok then
  io.stderr:write("error: ", tostring(ticks), "\n")
  os.exit(2)
end
local n = ticks_limit or #ticks
if n > #ticks then
  io.stderr:write(("error: --ticks %d is more than the %d ticks of %s\n"):format(n, #ticks, sticks_path))
  os.exit(2)
end
local rig = hopkit.Rig.new()
for i = 1, n do
  local t = ticks[i]
  rig:tick(t[1], t[2], t[3], t[4], t[5])
end
print(rig:hash_line())
