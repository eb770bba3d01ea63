-- A small LÖVE 11 game over hopkit's C ABI: the handheld demo (player, companion, critters, ghost
-- formation on the demo level) driven by the keyboard or a gamepad, drawn top-down.
--
--   love bindings/love                                       play (window)
--   love bindings/love --sticks FILE [--ticks N]             replay a sticks file in the window,
--                                                            print the state hash, quit
--   love bindings/love --headless --sticks FILE [--ticks N]  the same without window, graphics,
--                                                            sound or joysticks (conf.lua)
--   ... --sticks FILE --screenshot OUT.png                   (in a window) also save the last frame
--
-- The library: $HOPKIT_FFI_LIB, else target/release/libhopkit_ffi.so two folders up from this
-- game (`cargo build -p hopkit-ffi --release`).
--
-- Keys: W/S forward/back, A/D strafe, Left/Right (or Q/E) turn, Space jump (hold to bunny-hop),
-- F fire, Escape quit. Gamepad: left stick move, right stick turn, A jump, B or X fire.
local hopkit = require("hopkit")

local TICK = 1 / 60
local MAX_TICKS_PER_FRAME = 15 -- as hopkit's FixedStep: a long stall drops time, not frames
local rig, lib
local replay = { on = false } -- replaying a sticks file
local acc = 0

local function opt(args, name)
  for i, a in ipairs(args) do
    if a == name then return args[i + 1] or true end
  end
end

local function library_path()
  local env = os.getenv("HOPKIT_FFI_LIB")
  if env and env ~= "" then return env end
  return love.filesystem.getSource() .. "/../../target/release/libhopkit_ffi.so"
end

function love.load(args)
  lib = hopkit.load(library_path())
  rig = hopkit.Rig.new()
  local path = opt(args, "--sticks")
  if opt(args, "--headless") and type(path) ~= "string" then
    io.stderr:write("error: --headless needs --sticks FILE\n")
    love.event.quit(2)
    return
  end
  if path then
    replay.on = true
    if type(path) ~= "string" then
      io.stderr:write("error: --sticks needs a FILE\n")
      love.event.quit(2)
      return
    end
    local ok, ticks = pcall(hopkit.read_sticks, path)
    if not ok then
      io.stderr:write("error: ", tostring(ticks), "\n")
      love.event.quit(2)
      return
    end
    replay.ticks = ticks
    local limit = opt(args, "--ticks")
    replay.n = #ticks
    if limit ~= nil then
      replay.n = tonumber(limit)
      if not replay.n or replay.n < 0 or replay.n % 1 ~= 0 then
        io.stderr:write("error: --ticks needs a whole number\n")
        love.event.quit(2)
        return
      end
    end
    if replay.n > #ticks then
      io.stderr:write(("error: --ticks %d is more than the %d ticks of %s\n"):format(replay.n, #ticks, path))
      love.event.quit(2)
      return
    end
    local shot = opt(args, "--screenshot")
    replay.want_shot = type(shot) == "string" and love.graphics ~= nil
    replay.shot = replay.want_shot and shot or nil
    replay.done = 0
    replay.frames = 0
  end
end

-- Keyboard and gamepad as raw ADC counts, the way the handheld's sticks arrive.
local function axis(neg, pos)
  return (love.keyboard.isDown(pos) and 1 or 0) - (love.keyboard.isDown(neg) and 1 or 0)
end

local function live_input()
  local mx, my = axis("a", "d"), axis("s", "w")
  local look = axis("left", "right") + axis("q", "e")
  local jump = love.keyboard.isDown("space")
  local fire = love.keyboard.isDown("f")
  if love.joystick then
    for _, js in ipairs(love.joystick.getJoysticks()) do
      if js:isGamepad() then
        local lx, ly, rx = js:getGamepadAxis("leftx"), js:getGamepadAxis("lefty"), js:getGamepadAxis("rightx")
        if math.abs(lx) + math.abs(ly) > math.abs(mx) + math.abs(my) then mx, my = lx, -ly end
        if math.abs(rx) > math.abs(look) then look = rx end
        jump = jump or js:isGamepadDown("a")
        fire = fire or js:isGamepadDown("b", "x")
      end
    end
  end
  local b = (jump and lib.HK_DEMO_BUTTON_JUMP or 0) + (fire and lib.HK_DEMO_BUTTON_FIRE or 0)
  return hopkit.count(mx), hopkit.count(my), hopkit.count(look), hopkit.count(0), b
end

function love.update(dt)
  if replay.on then
    -- The file is the clock: one tick per frame, whatever dt is.
    if not replay.ticks then return end
    replay.frames = replay.frames + 1
    if replay.done < replay.n then
      local t = replay.ticks[replay.done + 1]
      rig:tick(t[1], t[2], t[3], t[4], t[5])
      replay.done = replay.done + 1
    end
    if replay.done == replay.n and replay.shot and love.graphics then
      -- Captured at the end of this frame's draw; quit once it is written.
      local out = replay.shot
      replay.shot = nil
      love.graphics.captureScreenshot(function(image)
        local f = assert(io.open(out, "wb"))
        f:write(image:encode("png"):getString())
        f:close()
        replay.shot_written = true
      end)
      return
    end
    if replay.done == replay.n and (replay.shot_written or not replay.want_shot) then
      local major, minor = love.getVersion()
      print(("love: %d ticks in %d frames (LÖVE %d.%d, %s, %s)"):format(replay.done, replay.frames,
        major, minor, jit and jit.version or "no JIT",
        love.graphics and ("drawn by " .. select(4, love.graphics.getRendererInfo())) or "no window"))
      print(rig:hash_line())
      replay.ticks = nil
      love.event.quit(0)
    end
    return
  end
  acc = math.min(acc + dt, MAX_TICKS_PER_FRAME * TICK)
  while acc >= TICK do
    rig:tick(live_input())
    acc = acc - TICK
  end
end

function love.keypressed(key)
  if key == "escape" then love.event.quit() end
end

function love.draw()
  local v = rig:view()
  local w, h = love.graphics.getDimensions()
  local scale = math.min(w, h) / 40 -- pixels per metre
  local cx, cz = v.player_position.x, v.player_position.z
  love.graphics.clear(0.05, 0.06, 0.08)
  love.graphics.push()
  love.graphics.translate(w / 2, h / 2)
  love.graphics.scale(scale)
  love.graphics.translate(-cx, -cz)
  -- A 4 m grid around the player.
  love.graphics.setLineWidth(1 / scale)
  love.graphics.setColor(0.15, 0.17, 0.2)
  local g0x, g0z = math.floor((cx - 40) / 4) * 4, math.floor((cz - 40) / 4) * 4
  for i = 0, 20 do
    love.graphics.line(g0x + i * 4, cz - 40, g0x + i * 4, cz + 40)
    love.graphics.line(cx - 40, g0z + i * 4, cx + 40, g0z + i * 4)
  end
  -- Critters, ghosts (their altitude as size), companion, player with its heading.
  love.graphics.setColor(0.9, 0.7, 0.2)
  for i = 0, v.critter_count - 1 do
    love.graphics.circle("fill", v.critters[i].x, v.critters[i].z, 0.3)
  end
  for i = 0, v.ghost_count - 1 do
    local firing = bit.band(v.ghost_firing, bit.lshift(1, i)) ~= 0
    love.graphics.setColor(firing and 1 or 0.6, 0.6, 1, 0.8)
    love.graphics.circle("line", v.ghosts[i].x, v.ghosts[i].z, 0.4 + v.ghosts[i].y * 0.05)
  end
  love.graphics.setColor(0.4, 0.9, 0.5)
  love.graphics.circle("fill", v.companion_position.x, v.companion_position.z, 0.4)
  love.graphics.setColor(1, 1, 1)
  love.graphics.circle("fill", cx, cz, 0.5)
  love.graphics.line(cx, cz, cx + v.player_heading.x * 1.5, cz + v.player_heading.y * 1.5)
  love.graphics.pop()
  love.graphics.setColor(1, 1, 1)
  love.graphics.print(("tick %d   speed %.1f m/s   %s   tilt %.0f°\n%s"):format(
    v.tick, v.player_speed, v.player_grounded ~= 0 and "ground" or "air", v.player_tilt_deg,
    rig:hash_line()), 10, 10)
end
