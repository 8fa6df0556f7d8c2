#!/usr/bin/env python3
"""Opens handout pages in headless Chromium and says what a reader would meet.

Usage: handout_check.py CHROMIUM OUT_DIR PAGE...

Chromium is driven through its DevTools protocol on a pipe
(--remote-debugging-pipe: requests on fd 3, answers on fd 4), so nothing of
the test goes into the page. For each page, once it has loaded, its fonts are
ready and every picture has been decoded or has failed, it prints lines of
key=value:

  page=PATH
  lang=...            the html element's lang
  scripts=N           script elements in the page
  sections=N          the steps' sections
  images=N broken=M   pictures, and those that did not load (naturalWidth 0)
  broken_src=...      the first of them
  screen_cut=N        text blocks wider than their box, or past the page's
  print_cut=N         edges: at 1000 px on a screen, and as printed on A4
  cut_text=...        the start of the first such block's text
  title=...           the h1's text, as the reader sees it
  pdf_a4=N            pages when printed on A4, and on US letter
  pdf_letter=N

The PDFs are kept in OUT_DIR (page-1-a4.pdf ...). It needs only the standard
library. Exit 0 when every page was measured, 1 otherwise."""

import base64
import fcntl
import json
import os
import re
import subprocess
import sys
import tempfile

# What the page holds, measured in the page (no code of the test is in the
# page itself: this is evaluated from outside, through the protocol).
MEASURE = r"""
(async () => {
  await document.fonts.ready;
  const imgs = [...document.images];
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0));
  const width = document.documentElement.clientWidth;
  const cut = [];
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const wide = style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1;
    const out = r.width > 0 && (r.left < -1 || r.right > width + 1);
    if ((wide || out) && (el.textContent.trim() || el.tagName === 'IMG'))
      cut.push((el.tagName + ': ' + (el.textContent || el.getAttribute('src') || '')).slice(0, 80));
  }
  if (document.documentElement.scrollWidth > width + 1)
    cut.push('the page is ' + document.documentElement.scrollWidth + ' px wide in ' + width);
  return {
    lang: document.documentElement.lang,
    scripts: document.scripts.length,
    sections: document.querySelectorAll('section').length,
    images: imgs.length,
    broken: broken.length,
    broken_src: broken.length ? broken[0].getAttribute('src') : '',
    cut: cut.length,
    cut_text: cut.length ? cut[0] : '',
    title: (document.querySelector('h1') || {textContent: ''}).textContent,
  };
})()
"""

A4 = (8.27, 11.69)  # inches
LETTER = (8.5, 11.0)
A4_TEXT_PX = round((210 - 2 * 12) / 25.4 * 96)  # the page's width less @page's margins


class Browser:
    def __init__(self, chromium, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # above 4, so that putting them at 3 and 4 in the child clobbers neither
        to_r, from_w = [self.high(fd) for fd in (to_r, from_w)]

        def fds():
            os.dup2(to_r, 3)  # a dup2's copy is inherited, unlike the pipe's own
            os.dup2(from_w, 4)

        self.log = open(os.path.join(profile, 'chromium.log'), 'wb')
        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe',
             '--user-data-dir=' + profile, '--no-first-run', '--no-default-browser-check',
             '--allow-file-access-from-files', 'about:blank'],
            close_fds=False, preexec_fn=fds, stdout=self.log, stderr=self.log)
        os.close(to_r)
        os.close(from_w)
        self.buf = b''
        self.next_id = 0
        self.events = []
        self.session = None

    @staticmethod
    def high(fd):
        new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return new

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.session:
            msg['sessionId'] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b'\0')
        while True:
            m = self.read()
            if m.get('id') == self.next_id:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m.get('result', {})
            self.events.append(m)

    def read(self):
        while b'\0' not in self.buf:
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError('chromium closed its pipe (see chromium.log)')
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def wait_event(self, method):
        while True:
            for i, m in enumerate(self.events):
                if m.get('method') == method:
                    del self.events[i]
                    return m
            self.events.append(self.read())

    def open(self):
        target = self.send('Target.createTarget', {'url': 'about:blank'}, session=False)['targetId']
        self.session = self.send('Target.attachToTarget', {'targetId': target, 'flatten': True},
                                 session=False)['sessionId']
        self.send('Page.enable')
        self.send('Runtime.enable')

    def measure(self, width, media):
        self.send('Emulation.setEmulatedMedia', {'media': media})
        self.send('Emulation.setDeviceMetricsOverride',
                  {'width': width, 'height': 1000, 'deviceScaleFactor': 1, 'mobile': False})
        r = self.send('Runtime.evaluate', {'expression': MEASURE, 'awaitPromise': True, 'returnByValue': True})
        if 'exceptionDetails' in r:
            raise RuntimeError('measuring: %s' % r['exceptionDetails'])
        return r['result']['value']

    def pdf(self, size, path):
        self.send('Emulation.clearDeviceMetricsOverride')
        self.send('Emulation.setEmulatedMedia', {'media': ''})
        # the margins are the page's own (@page)
        r = self.send('Page.printToPDF', {'paperWidth': size[0], 'paperHeight': size[1], 'printBackground': True})
        data = base64.b64decode(r['data'])
        with open(path, 'wb') as f:
            f.write(data)
        # a page object per page (Skia writes its page objects uncompressed)
        return len(re.findall(rb'/Type\s*/Page(?![a-zA-Z])', data))

    def close(self):
        try:
            self.send('Browser.close', session=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def check(b, page, n, out):
    b.send('Page.navigate', {'url': 'file://' + os.path.abspath(page)})
    b.wait_event('Page.loadEventFired')
    screen = b.measure(1000, 'screen')
    printed = b.measure(A4_TEXT_PX, 'print')
    print('page=%s' % page)
    for k in ('lang', 'scripts', 'sections', 'images', 'broken', 'broken_src'):
        print('%s=%s' % (k, screen[k]))
    print('screen_cut=%d' % screen['cut'])
    print('print_cut=%d' % printed['cut'])
    print('cut_text=%s' % (screen['cut_text'] or printed['cut_text']).replace('\n', ' '))
    print('title=%s' % screen['title'].replace('\n', ' '))
    print('pdf_a4=%d' % b.pdf(A4, os.path.join(out, 'page-%d-a4.pdf' % n)))
    print('pdf_letter=%d' % b.pdf(LETTER, os.path.join(out, 'page-%d-letter.pdf' % n)))


def main():
    if len(sys.argv) < 4:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    chromium, out, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    profile = tempfile.mkdtemp(dir=out, prefix='chromium-')
    b = Browser(chromium, profile)
    rc = 0
    try:
        b.open()
        for n, page in enumerate(pages, 1):
            check(b, page, n, out)
    except (RuntimeError, OSError, KeyError) as e:
        print('handout_check.py: %s' % e, file=sys.stderr)
        rc = 1
    finally:
        b.close()
    return rc


if __name__ == '__main__':
    sys.exit(main())
