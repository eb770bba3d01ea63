-- LÖVE 11 configuration. `love bindings/love --headless --sticks FILE` runs without a window,
-- graphics, sound or joysticks (a CI machine has none of them): the game then replays the sticks
-- file one tick per frame and prints the state hash.
local function has(flag)
  for _, a in ipairs(arg or {}) do
    if a == flag then return true end
  end
  return false
end

function love.conf(t)
  t.identity = "hopkit"
  t.version = "11.4"
  t.window.title = "hopkit (LÖVE + LuaJIT FFI)"
  t.window.width = 768
  t.window.height = 512
  t.window.resizable = true
  if has("--headless") then
    t.modules.window = false
    t.modules.graphics = false
    t.modules.audio = false
    t.modules.sound = false
    t.modules.joystick = false
  end
  t.modules.physics = false
  t.modules.video = false
end
