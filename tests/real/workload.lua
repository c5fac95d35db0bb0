-- A fixed, deterministic workload for the Lua interpreter: it exercises
-- many of the interpreter's C functions (tables, strings, closures,
-- string.format, sort, gsub, coroutines, metatables, pcall/error) and
-- prints a checksum, so that a traced run can be checked against an
-- untraced one.
--
-- Determinism: no pairs() over string-keyed tables feeds the checksum (its
-- order follows the string hash, which Lua seeds per process), no table or
-- function is used as a table key (their hash is their address), no time,
-- random number or environment is read, and no error message keeps its
-- "file:line:" prefix (the script's path).
--
-- Usage: lua workload.lua [SCALE]   (SCALE 1 is the default size)

local SCALE = tonumber(arg and arg[1]) or 1

local sum = 0
local function mix(v)
  -- A 32-bit FNV-style fold: integers only, so every run agrees.
  sum = ((sum ~ v) * 16777619) & 0xffffffff
end

local function mixs(s)
  for i = 1, #s, 7 do mix(s:byte(i)) end
  mix(#s)
end

-- Tables: array and hash parts, growth, removal, length.
local function tables(n)
  local t = {}
  for i = 1, n do t[i] = i * 3 % 17 end
  -- Insert near the end: inserting at the front would shift the whole array.
  for i = 1, n, 3 do table.insert(t, #t - i % 8, -i) end
  for _ = 1, n // 4 do table.remove(t) end
  local h = {}
  for i = 1, n do h["k" .. (i % 97)] = (h["k" .. (i % 97)] or 0) + t[i] end
  local acc = 0
  for i = 0, 96 do acc = acc + (h["k" .. i] or 0) end
  mix(#t); mix(acc)
end

-- Strings: format, concatenation, rep, sub, upper, find.
local function strings(n)
  local parts = {}
  for i = 1, n do
    parts[#parts + 1] = string.format("%05d:%x:%s:%.3f", i, i * 7, ("ab"):rep(i % 4), i / 8)
  end
  local s = table.concat(parts, ",")
  mixs(s:sub(1, 200)); mix(#s)
  local found = 0
  for i = 1, n, 5 do
    if s:find(string.format("%05d", i), 1, true) then found = found + 1 end
  end
  mix(found)
  mixs(s:upper():sub(-100))
end

-- Closures and upvalues; varargs and select.
local function closures(n)
  local function counter(start)
    local c = start
    return function(step) c = c + (step or 1); return c end
  end
  local fs = {}
  for i = 1, 20 do fs[i] = counter(i) end
  local v = 0
  for i = 1, n do v = v + fs[i % 20 + 1](i % 3) end
  local function va(...) return select("#", ...) + select(2, ...) end
  for i = 1, n // 2 do v = v + va(i, i % 5, "x") end
  mix(v)
end

-- Sorting with and without a Lua comparator.
local function sorting(n)
  local a, b = {}, {}
  local x = 12345
  for i = 1, n do
    x = (x * 1103515245 + 12345) & 0x7fffffff
    a[i] = x % 10007
    b[i] = { key = x % 101, id = i }
  end
  table.sort(a)
  table.sort(b, function(p, q)
    if p.key ~= q.key then return p.key < q.key end
    return p.id < q.id
  end)
  for i = 1, n, 37 do mix(a[i]); mix(b[i].id) end
end

-- Pattern matching: gsub with string, table and function replacements, gmatch.
local function patterns(n)
  local text = {}
  for i = 1, n do text[i] = "word" .. i .. " 0x" .. string.format("%x", i) end
  local s = table.concat(text, " ")
  local r1, c1 = s:gsub("%d+", "#")
  local r2, c2 = s:gsub("(%a+)(%d)", function(w, d) return d .. w:upper() end)
  local map = { ["0x1"] = "one", ["0x2"] = "two" }
  local _, c3 = s:gsub("0x%x+", map)
  local words = 0
  for w in s:gmatch("%a+") do words = words + #w end
  mix(c1); mix(c2); mix(c3); mix(words); mixs(r1:sub(1, 64)); mixs(r2:sub(-64))
end

-- Coroutines: a generator resumed many times.
local function coroutines(n)
  local gen = coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i * i % 1000) end
  end)
  local v = 0
  for _ = 1, n do v = v + gen() end
  local co = coroutine.create(function(a)
    while true do a = coroutine.yield(a * 2) end
  end)
  for i = 1, n // 2 do
    local _, r = coroutine.resume(co, i)
    v = v + r
  end
  mix(v)
end

-- Errors: pcall, error with strings and tables, error in nested calls.
-- Messages carry no "file:line:" prefix (level 0, or stripped), so the
-- checksum does not depend on the path the script is run from.
local function errors(n)
  local function risky(i)
    if i % 3 == 0 then error("bad " .. i, 0) end
    if i % 3 == 1 then error({ code = i }) end
    return i
  end
  local msgs, codes, oks = 0, 0, 0
  for i = 1, n do
    local ok, e = pcall(risky, i)
    if ok then oks = oks + e
    elseif type(e) == "table" then codes = codes + e.code
    else msgs = msgs + #e end
  end
  local ok2 = select(2, xpcall(function() return nil + 1 end,
    function(m) return #m:gsub("^.-:%d+: ", "") end))
  mix(msgs); mix(codes); mix(oks); mix(ok2)
end

-- Metatables: __index, __add, __eq, __tostring, __len.
local function metatables(n)
  local V = {}
  V.__index = V
  V.__add = function(p, q) return setmetatable({ x = p.x + q.x, y = p.y + q.y }, V) end
  V.__eq = function(p, q) return p.x == q.x and p.y == q.y end
  V.__tostring = function(p) return "(" .. p.x .. "," .. p.y .. ")" end
  V.__len = function(p) return p.x * p.x + p.y * p.y end
  function V.new(x, y) return setmetatable({ x = x, y = y }, V) end
  function V:scale(k) return V.new(self.x * k, self.y * k) end
  local acc = V.new(0, 0)
  local eq = 0
  for i = 1, n do
    acc = acc + V.new(i % 7, i % 11):scale(2)
    if V.new(i % 3, 0) == V.new(1, 0) then eq = eq + 1 end
  end
  mixs(tostring(acc)); mix(#acc % 1000003); mix(eq)
end

-- Math and integer/float conversions.
local function numbers(n)
  local v = 0
  for i = 1, n do
    v = v + math.floor(math.sqrt(i) * 10) + math.max(i % 13, i % 7) + math.abs(-i % 5)
    v = v + (tostring(i * 0.5)):len() + (math.tointeger(i * 2.0) or 0) % 3
  end
  mix(v % 0xffffffff)
end

-- Errors and coroutine yields unwind the C stack with longjmp. uftrace's
-- --no-libcall mode does not follow longjmp (its shadow stack keeps the
-- skipped frames, and past depth 1024 it records nothing more), so they run
-- once, a few dozen times in all, and not in every round.
errors(15)
coroutines(8)
for r = 1, 2 * SCALE do
  tables(2000)
  strings(500)
  closures(2000)
  sorting(1000)
  patterns(400)
  metatables(800)
  numbers(1000)
  mix(r)
end
print(string.format("workload checksum %08x", sum))
