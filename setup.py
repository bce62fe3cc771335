"""The compiled part of the package: the trick-play solver (a CPython extension, plain C).

Everything else about the package is in pyproject.toml; `pip install -e .` (`make install`)
builds the extension in place from tarok_service/bots/solver/_dds.c.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tarok_service.bots.solver._dds",
            sources=["tarok_service/bots/solver/_dds.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ]
)
