-- hopkit for LuaJIT (and LÖVE 11, which runs LuaJIT): the C ABI (bindings/c, libhopkit_ffi.so)
-- through LuaJIT's FFI. The declarations are the C header's (hopkit_cdef.lua, generated from
-- bindings/c/include/hopkit.h by tools/gen-cdef.lua; scripts/ci-love.sh checks it is current).
--
--   local hopkit = require("hopkit")
--   local lib = hopkit.load("target/release/libhopkit_ffi.so")
--   local rig = hopkit.Rig.new()            -- the handheld demo (HkDemoRig), bundled ghost
--   rig:tick(lx, ly, rx, ry, buttons)       -- 12-bit ADC counts, JUMP 1 | FIRE 2 | ...
--   print(rig:hash_line())                  -- state-hash: 0x...
local ffi = require("ffi")
local defs = require("hopkit_cdef")
ffi.cdef(defs.cdef)

local M = { floats = defs.floats, ffi = ffi }
local lib

--- Load the shared library (`cargo build -p hopkit-ffi --release` builds
--- target/release/libhopkit_ffi.so); returns the FFI namespace.
function M.load(path)
  lib = ffi.load(path)
  M.lib = lib
  return lib
end

local function check(status, what)
  if status ~= 0 then
    error(("%s: status %d"):format(what, tonumber(status)), 3)
  end
end
M.check = check

--- The `state-hash: 0x<16 hex>` line for a 64-bit hash (hk_format_hash_line).
function M.hash_line(hash)
  local buf = ffi.new("char[?]", lib.HK_HASH_LINE_SIZE)
  check(lib.hk_format_hash_line(hash, buf, lib.HK_HASH_LINE_SIZE), "hk_format_hash_line")
  return ffi.string(buf)
end

--- A stick position in [-1, 1] (NaN/out of range clamped) as a 12-bit ADC count, rounded to
--- nearest: -1 -> 0, 0 -> 2048, 1 -> 4095 (hopkit's RawSticks::from_positions).
function M.count(v)
  if v ~= v then v = 0 end
  if v < -1 then v = -1 elseif v > 1 then v = 1 end
  return math.floor((v + 1) * 0.5 * lib.HK_DEMO_ADC_MAX + 0.5)
end

--- The demo rig (HkDemoRig): the scene every hopkit front end runs, on the demo level with its
--- features, flying the bundled ghost recording.
local Rig = {}
Rig.__index = Rig
M.Rig = Rig

function Rig.new()
  local self = setmetatable({
    storage = ffi.new("HkDemoRig"),
    raw = ffi.new("HkRawSticks"),
    view_out = ffi.new("HkDemoView"),
    hash_out = ffi.new("uint64_t[1]"),
  }, Rig)
  check(lib.hk_demo_init(self.storage), "hk_demo_init")
  return self
end

--- One 1/60 s tick from raw stick counts (0..4095) and button bits.
function Rig:tick(lx, ly, rx, ry, buttons)
  local r = self.raw
  r.left_x, r.left_y, r.right_x, r.right_y = lx, ly, rx, ry
  r.adc_max, r.buttons = lib.HK_DEMO_ADC_MAX, buttons
  check(lib.hk_demo_tick(self.storage, r), "hk_demo_tick")
end

function Rig:hash()
  check(lib.hk_demo_state_hash(self.storage, self.hash_out), "hk_demo_state_hash")
  return self.hash_out[0]
end

function Rig:hash_line()
  return M.hash_line(self:hash())
end

--- A drawable snapshot (HkDemoView; reused between calls).
function Rig:view()
  check(lib.hk_demo_view(self.storage, self.view_out), "hk_demo_view")
  return self.view_out
end

--- Read a hopkit-sim sticks file (`hopkit-sim sticks --out FILE`: one tick per line,
--- `left_x left_y right_x right_y buttons`, counts 0..4095, buttons 0..15, `#` comments) into a
--- list of {lx, ly, rx, ry, buttons}. Errors name the line, like hopkit-sim's.
function M.read_sticks(path, read)
  local text
  if read then
    text = read(path)
  else
    local f, err = io.open(path, "r")
    if not f then
      error(("cannot read sticks file %s"):format(err), 0)
    end
    text = f:read("*a")
    f:close()
  end
  local ticks, n = {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local s = line:match("^%s*(.-)%s*$")
    if s ~= "" and s:sub(1, 1) ~= "#" then
      local v = {}
      for w in s:gmatch("%S+") do v[#v + 1] = tonumber(w) end
      if #v ~= 5 then
        error(("sticks file %s line %d: expected 5 numbers"):format(path, n), 0)
      end
      for i = 1, 4 do
        if not v[i] or v[i] < 0 or v[i] > 4095 or v[i] % 1 ~= 0 then
          error(("sticks file %s line %d: field %d outside the ADC range 0..=4095"):format(path, n, i), 0)
        end
      end
      if not v[5] or v[5] < 0 or v[5] > 15 or v[5] % 1 ~= 0 then
        error(("sticks file %s line %d: buttons outside 0..=15"):format(path, n), 0)
      end
      ticks[#ticks + 1] = v
    end
  end
  return ticks
end

return M
