"""Ctrl-C during the exact method's quadratic verification (issue 51 item 4):
dedup(method="exact", threshold=0.3) of 3,000 overlapping texts (about 70 s in
all), SIGINT sent after the given seconds; prints how long after the signal
KeyboardInterrupt was raised.   .venv/bin/python scripts/ctrl-c-exact.py 20"""
import time, neardup, random, os, signal, threading, sys
random.seed(1)
words = [f"w{i}" for i in range(400)]
base = [random.choice(words) for _ in range(300)]
texts = []
for i in range(3000):
    t = base[:]
    for _ in range(60): t[random.randrange(300)] = random.choice(words)
    texts.append(" ".join(t))
delay = float(sys.argv[1])
sent = [0]
def fire():
    time.sleep(delay); sent[0] = time.time(); os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=fire, daemon=True).start()
try:
    neardup.dedup(texts, method="exact", threshold=0.3); print("finished")
except KeyboardInterrupt:
    print("interrupted after the signal", round(time.time()-sent[0], 3), "s")
